"""mcp_servers/metrics"""
