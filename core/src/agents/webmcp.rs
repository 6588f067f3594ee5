//! The read-only browser tools every page offers through WebMCP (docs/spec/api-spec.md#mcp), defined once: the
//! build writes them into the MCP server card and into the file the pages' script registers them
//! from, so the two lists cannot differ.

use serde_json::{json, Map, Value};

/// Where the build writes the tool definitions the pages' `webmcp.js` reads (beside the script).
pub const TOOLS_FILE: &str = "assets/webmcp-tools.json";

/// One argument of a tool: its name, what it means, and whether it is required.
pub type Argument = (&'static str, &'static str, bool);

/// A browser tool: a GET on one of the API's endpoints, with query parameters filled from the
/// tool's arguments (`{name}` in a value is replaced by the argument `name`).
#[derive(Debug, Clone, Copy)]
pub struct BrowserTool {
    /// The tool's name.
    pub name: &'static str,
    /// What it is for, for the agent choosing it.
    pub description: &'static str,
    /// Its arguments.
    pub arguments: &'static [Argument],
    /// The API path it reads.
    pub path: &'static str,
    /// The query parameters it sends.
    pub query: &'static [(&'static str, &'static str)],
}

/// Every browser tool.
pub const BROWSER_TOOLS: &[BrowserTool] = &[
    BrowserTool {
        name: "search_site",
        description: "Search every published collection of the portal.",
        arguments: &[("query", "Words to find.", true)],
        path: "/api/search",
        query: &[("q", "{query}")],
    },
    BrowserTool {
        name: "search_services",
        description: "Find services (health, legal aid, water, shelter...) by words.",
        arguments: &[("query", "What help is needed.", true)],
        path: "/api/search",
        query: &[("q", "{query}"), ("collections", "services")],
    },
    BrowserTool {
        name: "weather_summary",
        description: "Today's weather and forecast, or the seasonal summary when live data is unavailable.",
        arguments: &[],
        path: "/api/weather",
        query: &[],
    },
    BrowserTool {
        name: "urgent_help_contacts",
        description: "Current high-priority alerts and the services to contact urgently.",
        arguments: &[],
        path: "/api/alerts",
        query: &[],
    },
    BrowserTool {
        name: "language_support_routes",
        description: "Services and courses that offer interpreting or language lessons.",
        arguments: &[("language", "A language name, e.g. Arabic.", false)],
        path: "/api/search",
        query: &[("q", "{language} language"), ("collections", "services,courses")],
    },
    BrowserTool {
        name: "newcomer_first_steps",
        description: "First steps for a newcomer: registration, rights and essential services.",
        arguments: &[],
        path: "/api/search",
        query: &[("q", "registration"), ("collections", "rights,services,docs")],
    },
];

impl BrowserTool {
    /// The JSON Schema of the tool's arguments.
    pub fn input_schema(&self) -> Value {
        let properties: Map<String, Value> = self
            .arguments
            .iter()
            .map(|(name, description, _)| (name.to_string(), json!({"type": "string", "description": description})))
            .collect();
        let required: Vec<&str> =
            self.arguments.iter().filter(|(_, _, required)| *required).map(|(n, ..)| *n).collect();
        let mut schema = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        schema
    }

    /// The tool as the server card and the pages' script read it.
    pub fn to_json(&self) -> Value {
        let fixed: Vec<String> =
            self.query.iter().filter(|(_, value)| !value.contains('{')).map(|(n, v)| format!("{n}={v}")).collect();
        let endpoint =
            if fixed.is_empty() { self.path.to_string() } else { format!("{}?{}", self.path, fixed.join("&")) };
        let query: Map<String, Value> = self.query.iter().map(|(n, v)| (n.to_string(), json!(v))).collect();
        json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema(),
            "endpoint": endpoint,
            "request": {"method": "GET", "path": self.path, "query": query},
        })
    }
}

/// Every browser tool as JSON.
pub fn tools_json() -> Value {
    Value::Array(BROWSER_TOOLS.iter().map(BrowserTool::to_json).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_names_an_argument() {
        for tool in BROWSER_TOOLS {
            for (_, value) in tool.query {
                for part in value.split('{').skip(1) {
                    let name = part.split('}').next().unwrap_or_default();
                    assert!(tool.arguments.iter().any(|(n, ..)| *n == name), "{}: {{{name}}}", tool.name);
                }
            }
        }
    }

    #[test]
    fn fixed_parameters_show_in_the_endpoint() {
        let services = BROWSER_TOOLS.iter().find(|t| t.name == "search_services").map(BrowserTool::to_json);
        assert_eq!(services.map(|t| t["endpoint"].clone()), Some(json!("/api/search?collections=services")));
    }
}
