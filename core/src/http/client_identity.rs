//! Who the client is, for the rate limit and the upstream geolocation lookup (docs/spec/api-spec.md#client-identity).
//!
//! The contract's order (the first `X-Forwarded-For` address, then `X-Real-IP`, then
//! `CF-Connecting-IP`, then the connection's peer) holds only across hops the server trusts: any
//! client can send those headers. So the adapter says whether the peer it received the request
//! from is a trusted proxy (`Request::trusted_peer`): natively when the peer is in
//! `portal serve --trusted-proxies` (default: loopback, so a local reverse proxy works), on the
//! Worker when `CF-Connecting-IP` (set by Cloudflare, the peer there) is a loopback address, which
//! only `wrangler dev` sends. Otherwise the peer itself is the client.
//!
//! Only what parses as an IP address names a client: a forwarded entry that does not (`unknown`,
//! `garbage-1`) is skipped rather than becoming a budget of its own, a port is dropped, and IPv4
//! mapped into IPv6 is the IPv4 address, so one client has one spelling. An IPv6 client is counted
//! per /64 ([`rate_key`]): a single host is usually given a whole /64, so counting its addresses
//! one by one would let it rotate through them (SECURITY.md, "Who the client is").

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use crate::http::Request;

/// The request headers that may name the client (besides the connection's peer): an answer that
/// depends on who the client is varies with them.
pub const HEADERS: [&str; 3] = ["X-Forwarded-For", "X-Real-IP", "CF-Connecting-IP"];

/// The loopback networks, trusted by default.
pub const LOOPBACK: &str = "127.0.0.0/8,::1";

/// How many connections one client address (an IPv6 /64, see [`rate_key`]) may hold open at once
/// on `portal serve`, unless it is a trusted proxy that carries many clients: one address cannot
/// take every connection the server allows.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 64;

/// The client address of a request (see the module's doc), else `unknown`.
pub fn address(request: &Request) -> String {
    client_ip(request).map_or_else(|| "unknown".to_string(), |ip| ip.to_string())
}

/// The key the rate limit counts a request under: its client's [`address`], or the client's /64
/// network for IPv6.
pub fn rate_key(request: &Request) -> String {
    client_ip(request).map_or_else(|| "unknown".to_string(), network_key)
}

/// The key of a client at `ip`: the address for IPv4, the /64 network (`2001:db8:1:2::/64`) for
/// IPv6. The rate limit and the per-client connection cap count by it.
pub fn network_key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V6(v6) => format!("{}/64", Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        v4 => v4.to_string(),
    }
}

fn client_ip(request: &Request) -> Option<IpAddr> {
    let peer = request.peer.as_deref().and_then(parse_ip);
    if !request.trusted_peer {
        return peer;
    }
    let values = |name: &'static str| {
        request.headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    };
    let forwarded = values("x-forwarded-for").flat_map(|list| list.split(',')).find_map(parse_ip);
    forwarded
        .or_else(|| values("x-real-ip").find_map(parse_ip))
        .or_else(|| values("cf-connecting-ip").find_map(parse_ip))
        .or(peer)
}

/// One address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
/// `[2001:db8::1]:443` or `[2001:db8::1]`; anything else is no address.
pub fn parse_ip(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    let ip = text
        .parse::<IpAddr>()
        .or_else(|_| text.parse::<SocketAddr>().map(|socket| socket.ip()))
        .or_else(|_| text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or("").parse::<IpAddr>())
        .ok()?;
    Some(canonical(ip))
}

/// IPv4 mapped into IPv6 (`::ffff:1.2.3.4`) is the IPv4 address it carries.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether `address` is a loopback address (`127.0.0.0/8`, `::1`, or IPv4 mapped into IPv6).
pub fn is_loopback(address: &str) -> bool {
    parse_ip(address).is_some_and(|ip| ip.is_loopback())
}

/// The networks whose forwarded headers a server believes (`--trusted-proxies`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedProxies(Vec<(IpAddr, u8)>);

impl TrustedProxies {
    /// Parses a comma-separated list of CIDRs or addresses (`10.0.0.0/8,::1`), or `none`.
    pub fn parse(list: &str) -> Result<Self, String> {
        if list.trim().eq_ignore_ascii_case("none") {
            return Ok(TrustedProxies(Vec::new()));
        }
        list.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(network)
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    /// Whether a connection from `peer` may speak for its client.
    pub fn trusts(&self, peer: &str) -> bool {
        let Some(peer) = parse_ip(peer) else { return false };
        self.0.iter().any(|(net, bits)| contains(*net, *bits, peer))
    }
}

fn network(item: &str) -> Result<(IpAddr, u8), String> {
    let bad = || format!("`{item}` is not an IP address or a network like 10.0.0.0/8 or fd00::/8");
    let (address, bits) = match item.split_once('/') {
        Some((address, bits)) => (address, Some(bits.parse::<u8>().map_err(|_| bad())?)),
        None => (item, None),
    };
    let address: IpAddr = address.parse().map_err(|_| bad())?;
    let max = if address.is_ipv4() { 32 } else { 128 };
    let bits = bits.unwrap_or(max);
    if bits > max {
        return Err(bad());
    }
    Ok((address, bits))
}

fn contains(net: IpAddr, bits: u8, peer: IpAddr) -> bool {
    match (net, peer) {
        (IpAddr::V4(net), IpAddr::V4(peer)) => {
            let mask = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
            u32::from(net) & mask == u32::from(peer) & mask
        }
        (IpAddr::V6(net), IpAddr::V6(peer)) => {
            let mask = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
            u128::from(net) & mask == u128::from(peer) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Method;

    fn request(peer: &str, trusted: bool) -> Request {
        let mut r = Request::new(Method::Get, "/").with_header("x-forwarded-for", "203.0.113.5, 10.0.0.1");
        r.peer = Some(peer.into());
        r.trusted_peer = trusted;
        r
    }

    #[test]
    fn forwarded_headers_count_only_from_a_trusted_peer() {
        assert_eq!(address(&request("127.0.0.1", true)), "203.0.113.5");
        assert_eq!(address(&request("198.51.100.7", false)), "198.51.100.7");
        let mut real = request("127.0.0.1", true);
        real.headers.retain(|(n, _)| n != "x-forwarded-for");
        let real = real.with_header("x-real-ip", "1.1.1.1").with_header("cf-connecting-ip", "2.2.2.2");
        assert_eq!(address(&real), "1.1.1.1");
        assert_eq!(address(&Request::new(Method::Get, "/")), "unknown");
        let mut empty = request("127.0.0.1", true);
        empty.headers = vec![("x-forwarded-for".into(), " , 9.9.9.9".into())];
        assert_eq!(address(&empty), "9.9.9.9", "an empty hop is no address");
    }

    fn forwarded(values: &[&str]) -> Request {
        let mut r = request("127.0.0.1", true);
        r.headers = values.iter().map(|v| ("x-forwarded-for".to_string(), (*v).to_string())).collect();
        r
    }

    #[test]
    fn the_first_forwarded_entry_that_is_an_address_is_the_client() {
        assert_eq!(address(&forwarded(&["garbage-1, unknown, 203.0.113.9, 10.0.0.1"])), "203.0.113.9");
        assert_eq!(address(&forwarded(&["garbage-1", "198.51.100.3"])), "198.51.100.3", "across header lines");
        assert_eq!(address(&forwarded(&["not-an-ip"])), "127.0.0.1", "no address at all: the peer");
        let junk_then_real =
            forwarded(&["_hidden"]).with_header("x-real-ip", "junk").with_header("x-real-ip", "1.1.1.1");
        assert_eq!(address(&junk_then_real), "1.1.1.1");
    }

    #[test]
    fn a_port_and_brackets_are_dropped() {
        assert_eq!(address(&forwarded(&["1.2.3.4:5678"])), "1.2.3.4");
        assert_eq!(address(&forwarded(&["[2001:db8::1]:443"])), "2001:db8::1");
        assert_eq!(address(&forwarded(&["[2001:db8::1]"])), "2001:db8::1");
        assert_eq!(address(&forwarded(&["2001:db8::1"])), "2001:db8::1");
    }

    #[test]
    fn ipv4_mapped_into_ipv6_is_ipv4() {
        assert_eq!(address(&forwarded(&["::ffff:1.2.3.4"])), "1.2.3.4");
        assert_eq!(rate_key(&forwarded(&["::ffff:1.2.3.4"])), rate_key(&forwarded(&["1.2.3.4"])));
        let mut peer = request("::ffff:198.51.100.7", false);
        peer.headers.clear();
        assert_eq!(address(&peer), "198.51.100.7");
    }

    #[test]
    fn ipv6_clients_are_counted_per_64() {
        let key = rate_key(&forwarded(&["2001:db8:1:2::1"]));
        assert_eq!(key, "2001:db8:1:2::/64");
        assert_eq!(rate_key(&forwarded(&["2001:db8:1:2:ffff:ffff:ffff:ffff"])), key);
        assert_ne!(rate_key(&forwarded(&["2001:db8:1:3::1"])), key);
        assert_eq!(address(&forwarded(&["2001:db8:1:2::1"])), "2001:db8:1:2::1", "the address itself stays whole");
        assert_eq!(rate_key(&forwarded(&["203.0.113.5"])), "203.0.113.5", "IPv4 is counted per address");
        assert_eq!(network_key("::ffff:10.1.2.3".parse().expect("valid")), "10.1.2.3");
    }

    #[test]
    fn networks_match_by_prefix_in_both_families() {
        let trusted = TrustedProxies::parse(LOOPBACK).expect("valid");
        assert!(trusted.trusts("127.0.0.1") && trusted.trusts("127.9.9.9") && trusted.trusts("::1"));
        assert!(trusted.trusts("::ffff:127.0.0.1"), "IPv4 mapped into IPv6");
        assert!(!trusted.trusts("10.0.0.1") && !trusted.trusts("::2") && !trusted.trusts("not an address"));
        let private = TrustedProxies::parse("10.0.0.0/8, fd00::/8,192.0.2.7").expect("valid");
        assert!(private.trusts("10.200.1.1") && private.trusts("fd12::1") && private.trusts("192.0.2.7"));
        assert!(!private.trusts("192.0.2.8") && !private.trusts("11.0.0.1"));
        assert!(!TrustedProxies::parse("none").expect("valid").trusts("127.0.0.1"));
        for bad in ["10.0.0.0/33", "localhost", "::1/200", "10.0.0.0/x"] {
            assert!(TrustedProxies::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn loopback_addresses_are_recognised() {
        assert!(is_loopback("127.0.0.1") && is_loopback("::1") && is_loopback("::ffff:127.0.0.1"));
        assert!(!is_loopback("203.0.113.5") && !is_loopback(""));
    }
}
