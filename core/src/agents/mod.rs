//! What the site offers software agents: the MCP server, the OpenAPI document and the WebMCP
//! browser tools.

pub mod mcp;
pub mod openapi;
pub mod webmcp;
