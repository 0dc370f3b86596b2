/// RQLBytecode: the opcode table, instruction encoding, constant pool, `Program`, its builder and verifier.
enum RQLBytecodeModule {}
