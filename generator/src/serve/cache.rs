//! The native short-lived cache behind `Platform::cache_get`/`cache_put` (search answers,
//! upstream answers): entries expire after their TTL, and the whole is bounded in entries and bytes.

use std::collections::HashMap;

use bytes::Bytes;

/// A TTL cache bounded in entries and bytes.
#[derive(Debug)]
pub struct TtlCache {
    entries: HashMap<String, (Bytes, u64)>,
    bytes: usize,
    max_entries: usize,
    max_bytes: usize,
}

impl TtlCache {
    /// An empty cache holding at most `max_entries` values and `max_bytes` bytes of keys and values.
    pub fn new(max_entries: usize, max_bytes: usize) -> Self {
        TtlCache { entries: HashMap::new(), bytes: 0, max_entries: max_entries.max(1), max_bytes }
    }

    /// The value of `key` if it has not expired at `now_ms`.
    pub fn get(&self, key: &str, now_ms: u64) -> Option<Bytes> {
        self.entries.get(key).filter(|(_, expires)| *expires > now_ms).map(|(value, _)| value.clone())
    }

    /// Stores `value` until `now_ms + ttl_ms`; a value larger than the whole budget is not stored.
    pub fn put(&mut self, key: &str, value: Bytes, now_ms: u64, ttl_ms: u64) {
        let size = key.len() + value.len();
        if size > self.max_bytes || ttl_ms == 0 {
            return;
        }
        self.remove(key);
        if self.entries.len() >= self.max_entries || self.bytes + size > self.max_bytes {
            self.evict(now_ms, size);
        }
        self.bytes += size;
        self.entries.insert(key.to_string(), (value, now_ms + ttl_ms));
    }

    /// Number of entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes held (keys and values).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    fn remove(&mut self, key: &str) {
        if let Some((value, _)) = self.entries.remove(key) {
            self.bytes -= key.len() + value.len();
        }
    }

    /// Drops expired entries, then those expiring soonest, until `incoming` more bytes fit with a
    /// tenth of both bounds to spare: evicting walks every entry, so a full cache does it once per
    /// many puts rather than on every one (a server answering distinct searches puts on every
    /// request).
    fn evict(&mut self, now_ms: u64, incoming: usize) {
        let bytes = &mut self.bytes;
        self.entries.retain(|key, (value, expires)| {
            let keep = *expires > now_ms;
            if !keep {
                *bytes -= key.len() + value.len();
            }
            keep
        });
        let (entries, bytes) = (self.max_entries - self.max_entries / 10, self.max_bytes - self.max_bytes / 10);
        if self.entries.len() < entries && self.bytes + incoming <= bytes {
            return;
        }
        let mut by_expiry: Vec<(u64, String)> = self.entries.iter().map(|(k, (_, e))| (*e, k.clone())).collect();
        by_expiry.sort_unstable();
        let mut victims = by_expiry.into_iter();
        while self.entries.len() >= entries || self.bytes + incoming > bytes {
            let Some((_, key)) = victims.next() else { break };
            self.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_expire() {
        let mut cache = TtlCache::new(10, 1000);
        cache.put("a", Bytes::from_static(b"1"), 0, 60_000);
        assert_eq!(cache.get("a", 59_999), Some(Bytes::from_static(b"1")));
        assert_eq!(cache.get("a", 60_000), None);
    }

    #[test]
    fn entries_and_bytes_stay_bounded() {
        let mut cache = TtlCache::new(100, 10_000);
        for i in 0..10_000u64 {
            cache.put(&format!("key-{i}"), Bytes::from(vec![0u8; 50]), i, 60_000);
            assert!(cache.len() <= 100);
            assert!(cache.bytes() <= 10_000);
        }
        assert!(cache.get("key-9999", 10_000).is_some(), "the newest entry survives");
    }

    #[test]
    fn a_full_cache_makes_room_for_many_puts_at_once() {
        let mut cache = TtlCache::new(100, 1_000_000);
        for i in 0..100u64 {
            cache.put(&format!("key-{i}"), Bytes::from_static(b"v"), i, 60_000);
        }
        cache.put("one more", Bytes::from_static(b"v"), 100, 60_000);
        assert_eq!(cache.len(), 90, "the eleven entries expiring soonest went (leaving 89), then the new one came");
        assert!(cache.get("key-10", 100).is_none() && cache.get("key-11", 100).is_some());
    }
}
