"""Task assets, sheets, video frames and actions as MCP tools."""
