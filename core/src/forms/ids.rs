//! The ids and keys of what readers send: a 128-bit digest of a request's parts, written in base
//! 32. Core has no random source, so a submission's id and a mail recipient's quota key are
//! derived from what they are about.

/// Crockford's base 32 alphabet (no I, L, O, U), lower-cased.
const BASE32: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A 128-bit digest of `parts` (two seeded 64-bit FNV-1a lanes, each finished with a
/// SplitMix64 mix). Not cryptographic; it only has to make ids unique and hard to guess.
pub fn digest(parts: &[&[u8]]) -> u128 {
    let lane = |seed: u64| {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
        for part in parts {
            for byte in part.iter().chain(&[0xff]) {
                h ^= u64::from(*byte);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        let mut z = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (u128::from(lane(0x5eed_0001)) << 64) | u128::from(lane(0x5eed_0002))
}

/// `len` base-32 characters of `value` (at most 25, the 125 bits that fit).
pub fn base32(mut value: u128, len: usize) -> String {
    (0..len.min(25))
        .map(|_| {
            let c = BASE32[(value & 31) as usize];
            value >>= 5;
            char::from(c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_differ_with_any_input() {
        let a = digest(&[b"1", b"x"]);
        assert_ne!(a, digest(&[b"1", b"y"]));
        assert_ne!(a, digest(&[b"1x", b""]));
        assert_eq!(a, digest(&[b"1", b"x"]));
        assert_eq!(base32(a, 20).len(), 20);
        assert!(base32(u128::MAX, 30).chars().all(|c| BASE32.contains(&(c as u8))));
    }
}
