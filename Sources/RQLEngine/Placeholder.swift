import RQLCore
