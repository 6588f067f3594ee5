//! Query-string parameters: parsing and the bound checks every endpoint shares.

use crate::http::problem::Problem;

/// The decoded parameters of a query string, in order.
#[derive(Debug, Clone, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Parses a raw query string (`a=1&b=2`, `+` as space, percent-decoding).
    pub fn parse(raw: Option<&str>) -> Self {
        Query(raw.map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect()).unwrap_or_default())
    }

    /// A query from name/value pairs (for calling a handler on behalf of another interface, e.g. MCP).
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Self {
        Query(pairs)
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The first value of `name`, trimmed, when it has one (an empty value is none).
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).map(str::trim).filter(|v| !v.is_empty())
    }

    /// Whether `name` is present, alone or as a family of bracketed names (`filter` is present in
    /// `filter[category]=x`).
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name || n.strip_prefix(name).is_some_and(|rest| rest.starts_with('[')))
    }

    /// Every name and value, in order.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// An integer parameter within `min..=max`; a bad value is 400 `bad_request` naming it.
    pub fn integer(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, Problem> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        match raw.trim().parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ if max == i64::MAX => {
                Err(Problem::bad_request(format!("`{name}` must be an integer of at least {min}; got `{raw}`.")))
            }
            _ => Err(Problem::bad_request(format!("`{name}` must be an integer from {min} to {max}; got `{raw}`."))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_bounded() {
        let q = Query::parse(Some("limit=5&offset=-1&x=a+b"));
        assert_eq!(q.integer("limit", 1, 1000).ok().flatten(), Some(5));
        assert!(q.integer("offset", 0, i64::MAX).is_err());
        assert_eq!(q.get("x"), Some("a b"));
        assert_eq!(q.integer("missing", 1, 2).ok().flatten(), None);
    }

    #[test]
    fn bracketed_names_belong_to_their_family() {
        let q = Query::parse(Some("filter%5Bcategory%5D=health&sorted=1"));
        assert!(q.has("filter"));
        assert!(!q.has("sort"));
        assert_eq!(q.pairs().next(), Some(("filter[category]", "health")));
    }
}
