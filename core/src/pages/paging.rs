//! Paged listings of the published site (docs/content.md#listings-tags-and-categories): a listing
//! longer than `pagination.page_size` items continues on `<listing>/page/2`, `<listing>/page/3`...
//! Every item is on exactly one page; the first page keeps the listing's own URL.

/// The path segment between a listing and its page number.
pub const PAGE_SEGMENT: &str = "page";

/// How many pages `total` items fill, `size` to a page: at least one (an empty listing still has
/// its page).
pub fn page_count(total: usize, size: usize) -> usize {
    total.div_ceil(size.max(1)).max(1)
}

/// The items of page `number` (from 1) of `items`, `size` to a page; empty past the end.
pub fn page_items<T>(items: &[T], size: usize, number: usize) -> &[T] {
    let size = size.max(1);
    let start = number.saturating_sub(1).saturating_mul(size).min(items.len());
    let end = start.saturating_add(size).min(items.len());
    &items[start..end]
}

/// The URL of page `number` of the listing at `listing` (`/news`): the listing itself for page 1,
/// `/news/page/<n>` after it.
pub fn page_url(listing: &str, number: usize) -> String {
    if number <= 1 {
        listing.to_string()
    } else {
        format!("{}/{PAGE_SEGMENT}/{number}", listing.trim_end_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_hold_every_item_once() {
        let items: Vec<usize> = (0..45).collect();
        let pages = page_count(items.len(), 20);
        assert_eq!(pages, 3);
        let seen: Vec<usize> = (1..=pages).flat_map(|n| page_items(&items, 20, n).to_vec()).collect();
        assert_eq!(seen, items);
        assert_eq!(page_items(&items, 20, 3).len(), 5);
        assert!(page_items(&items, 20, 4).is_empty());
    }

    #[test]
    fn counts_at_the_edges() {
        assert_eq!(page_count(0, 20), 1);
        assert_eq!(page_count(20, 20), 1);
        assert_eq!(page_count(21, 20), 2);
        assert_eq!(page_count(5, 0), 5, "a size of 0 is treated as 1");
    }

    #[test]
    fn the_first_page_keeps_the_listing_url() {
        assert_eq!(page_url("/news", 1), "/news");
        assert_eq!(page_url("/news", 2), "/news/page/2");
        assert_eq!(page_url("/tags/water", 3), "/tags/water/page/3");
    }
}
