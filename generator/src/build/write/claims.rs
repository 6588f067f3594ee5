//! Which of a build's files claims each name (a URL, a path): an index into the files, a few bytes
//! a file where a map of strings holds two pointers and a hash an entry (a million-record build
//! writes some four million files, and checks every one of their names).

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

/// The last of a list's items to claim each name, by its index in the list.
pub struct Claims {
    table: HashTable<u32>,
    state: RandomState,
}

impl Claims {
    /// No claims yet.
    pub fn new() -> Claims {
        Claims { table: HashTable::new(), state: RandomState::new() }
    }

    /// Records that `items[i]` claims its name, which `name_of` reads of each item (an item
    /// without one claims nothing); says which item claimed the name before, if one did.
    pub fn claim<'a, T>(&mut self, items: &'a [T], i: u32, name_of: impl Fn(&'a T) -> Option<&'a str>) -> Option<u32> {
        let (table, state) = (&mut self.table, &self.state);
        let name_at = |j: u32| items.get(j as usize).and_then(&name_of);
        let name = name_at(i)?;
        let hash = state.hash_one(name);
        match table.find_mut(hash, |&j| name_at(j) == Some(name)) {
            Some(slot) => Some(std::mem::replace(slot, i)),
            None => {
                table.insert_unique(hash, i, |&j| state.hash_one(name_at(j).unwrap_or_default()));
                None
            }
        }
    }

    /// The item of `items` that claims `name` last.
    pub fn find<'a, T>(&self, items: &'a [T], name: &str, name_of: impl Fn(&'a T) -> Option<&'a str>) -> Option<&'a T> {
        let hash = self.state.hash_one(name);
        let at = |j: u32| items.get(j as usize);
        let i = self.table.find(hash, |&j| at(j).and_then(&name_of) == Some(name))?;
        at(*i)
    }
}

impl Default for Claims {
    fn default() -> Self {
        Claims::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_claim_stands_and_names_the_one_before() {
        let items = ["a", "b", "a", "a"];
        let mut claims = Claims::new();
        let name_of = |s: &&'static str| Some(*s);
        let before: Vec<Option<u32>> = (0..4u32).map(|i| claims.claim(&items, i, name_of)).collect();
        assert_eq!(before, [None, None, Some(0), Some(2)]);
        let nameless = ["a", ""];
        let named = |s: &&'static str| Some(*s).filter(|s| !s.is_empty());
        assert_eq!(claims.claim(&nameless, 1, named), None, "an item without a name claims nothing");
        assert_eq!(claims.find(&items, "a", name_of).map(|s| s.as_ptr()), Some(items[3].as_ptr()));
        assert!(claims.find(&items, "c", name_of).is_none());
    }
}
