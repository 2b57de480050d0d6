"""mcp_servers/browser"""
