import RQLBytecode
import RQLIR

/// RQLCodegen: physical plan → program.
enum RQLCodegenModule {}
