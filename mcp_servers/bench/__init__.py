"""The benchmark itself as MCP tools."""
