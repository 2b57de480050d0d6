"""mcp_servers"""
