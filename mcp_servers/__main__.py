"""`python -m iwr.mcp_servers NAME [--http PORT] ...`: start one MCP server (same as `iwr mcp NAME`)."""
from iwr.mcp_servers.launcher import main

main()
