"""The coder's sandboxed files as MCP tools."""
