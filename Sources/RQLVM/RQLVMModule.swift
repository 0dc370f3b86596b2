import RQLBytecode
import RQLStorage

/// RQLVM: the vectorized interpreter.
enum RQLVMModule {}
