//! The HSDS page envelope and its parameters (docs/spec/api-spec.md#hsds): `page` counts from 1,
//! `per_page` is at most [`MAX_PER_PAGE`].

use serde_json::{json, Value};

use crate::http::problem::Problem;
use crate::http::query::Query;

/// Items per page when the request names no `per_page`.
pub const DEFAULT_PER_PAGE: usize = 50;
/// The largest `per_page`.
pub const MAX_PER_PAGE: usize = 500;

/// Which page a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// The page, from 1.
    pub page: usize,
    /// Items per page.
    pub per_page: usize,
}

impl Default for Paging {
    fn default() -> Self {
        Paging { page: 1, per_page: DEFAULT_PER_PAGE }
    }
}

impl Paging {
    /// `page` and `per_page` of a query; a bad value is 400 `bad_request` naming it.
    pub fn of(query: &Query) -> Result<Paging, Problem> {
        let page = query.integer("page", 1, i64::from(u32::MAX))?.unwrap_or(1) as usize;
        let per_page = query.integer("per_page", 1, MAX_PER_PAGE as i64)?.map_or(DEFAULT_PER_PAGE, |n| n as usize);
        Ok(Paging { page, per_page })
    }

    /// The positions of the items this page shows among `total` (none past the last page).
    pub fn window(self, total: usize) -> std::ops::Range<usize> {
        let start = (self.page - 1).saturating_mul(self.per_page).min(total);
        start..start.saturating_add(self.per_page).min(total)
    }

    /// The HSDS envelope of this page of `total` items, showing `contents` (see [`Paging::window`]).
    pub fn envelope(self, total: usize, contents: Vec<Value>) -> Value {
        let total_pages = total.div_ceil(self.per_page).max(1);
        json!({
            "total_items": total,
            "total_pages": total_pages,
            "page_number": self.page,
            "size": contents.len(),
            "first_page": self.page == 1,
            "last_page": self.page >= total_pages,
            "empty": contents.is_empty(),
            "contents": contents,
        })
    }

    /// This page of `items`, in the envelope.
    pub fn page_of(self, items: &[Value]) -> Value {
        self.envelope(items.len(), items[self.window(items.len())].to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> Query {
        Query::parse(Some(text))
    }

    #[test]
    fn pages_count_from_one_and_the_last_may_be_short() {
        let items: Vec<Value> = (0..5).map(|n| json!(n)).collect();
        let page = Paging { page: 3, per_page: 2 }.page_of(&items);
        assert_eq!(page["contents"], json!([4]));
        assert_eq!((page["total_pages"].clone(), page["last_page"].clone()), (json!(3), json!(true)));
        let past = Paging { page: 9, per_page: 2 }.page_of(&items);
        assert_eq!((past["size"].clone(), past["empty"].clone()), (json!(0), json!(true)));
        let none = Paging::default().page_of(&[]);
        assert_eq!((none["total_pages"].clone(), none["first_page"].clone()), (json!(1), json!(true)));
    }

    #[test]
    fn bad_paging_is_a_bad_request() {
        assert_eq!(Paging::of(&query("")).ok(), Some(Paging::default()));
        assert_eq!(Paging::of(&query("page=2&per_page=500")).ok(), Some(Paging { page: 2, per_page: 500 }));
        for bad in ["page=0", "page=x", "per_page=501", "per_page=0", "per_page=-1"] {
            assert!(Paging::of(&query(bad)).is_err(), "{bad}");
        }
    }
}
