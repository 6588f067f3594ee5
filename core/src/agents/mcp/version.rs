//! The MCP revisions this server speaks, and what differs between them.
//!
//! Two eras share one endpoint (revision 2026-07-28, "Versioning and Compatibility"): a *legacy*
//! client opens with `initialize` and names its revision in the `MCP-Protocol-Version` header
//! afterwards; a *modern* client (2026-07-28) sends no handshake and names its revision, in the body's
//! `_meta` and in the header, on every request. The server keeps no state either way.

/// One MCP revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Revision {
    /// The first revision (HTTP+SSE era; its JSON-RPC messages are the same).
    V2024_11_05,
    /// Streamable HTTP; JSON-RPC batches.
    V2025_03_26,
    /// No batches; `title`, structured tool output, `resource_link`, the `MCP-Protocol-Version` header.
    V2025_06_18,
    /// Icons and `websiteUrl`; Origin checks are a MUST.
    V2025_11_25,
    /// Stateless: no `initialize`, `server/discover`, per-request `_meta`, `Mcp-Method`/`Mcp-Name`
    /// headers, `resultType` and cache hints on results.
    V2026_07_28,
}

use Revision::*;

/// Every revision spoken, newest first.
pub const SUPPORTED: [Revision; 5] = [V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05];

/// The newest revision.
pub const LATEST: Revision = V2026_07_28;

/// The newest revision that opens with `initialize`: what `initialize` offers a client that asks
/// for a revision this server does not speak, or for a modern one.
pub const LATEST_LEGACY: Revision = V2025_11_25;

/// The revision of a request with no `MCP-Protocol-Version` header and no `_meta` version: clients
/// older than 2025-06-18 send none (Streamable HTTP, "Protocol Version Header").
pub const WITHOUT_HEADER: Revision = V2025_03_26;

/// The supported revisions' names, newest first.
pub fn supported_names() -> Vec<&'static str> {
    SUPPORTED.iter().map(|r| r.as_str()).collect()
}

impl Revision {
    /// The revision named `name`, if spoken.
    pub fn parse(name: &str) -> Option<Revision> {
        SUPPORTED.iter().copied().find(|r| r.as_str() == name.trim())
    }

    /// Its name, e.g. `2025-06-18`.
    pub const fn as_str(self) -> &'static str {
        match self {
            V2024_11_05 => "2024-11-05",
            V2025_03_26 => "2025-03-26",
            V2025_06_18 => "2025-06-18",
            V2025_11_25 => "2025-11-25",
            V2026_07_28 => "2026-07-28",
        }
    }

    /// Modern: every request carries its own version; results carry `resultType` and cache hints.
    pub fn is_stateless(self) -> bool {
        self >= V2026_07_28
    }

    /// Whether a POST may carry a JSON-RPC batch (an array): 2025-03-26 and earlier.
    pub fn allows_batches(self) -> bool {
        self <= V2025_03_26
    }

    /// Whether tools have `title` and `outputSchema`, results `structuredContent` and
    /// `resource_link` items (2025-06-18 and later).
    pub fn has_structured_output(self) -> bool {
        self >= V2025_06_18
    }

    /// Whether implementations carry `icons` and `websiteUrl` (2025-11-25 and later).
    pub fn has_icons(self) -> bool {
        self >= V2025_11_25
    }

    /// The error code of a resource that does not exist: -32002 until 2025-11-25, Invalid Params
    /// (-32602) since 2026-07-28.
    pub fn resource_not_found(self) -> i64 {
        if self.is_stateless() {
            super::jsonrpc::INVALID_PARAMS
        } else {
            super::jsonrpc::RESOURCE_NOT_FOUND
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_named_and_ordered() {
        assert_eq!(supported_names(), ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
        for revision in SUPPORTED {
            assert_eq!(Revision::parse(revision.as_str()), Some(revision));
        }
        assert_eq!(Revision::parse("1999-01-01"), None);
        assert!(LATEST.is_stateless() && !LATEST_LEGACY.is_stateless());
        assert!(V2025_03_26.allows_batches() && !V2025_06_18.allows_batches());
        assert_eq!(V2025_11_25.resource_not_found(), -32002);
        assert_eq!(V2026_07_28.resource_not_found(), -32602);
    }
}
