//! Who the client is, for the rate limit and the upstream geolocation lookup (spec 5.6, issue 17).
//!
//! The spec's order (the first `X-Forwarded-For` address, then `X-Real-IP`, then
//! `CF-Connecting-IP`, then the connection's peer) holds only across hops the server trusts: any
//! client can send those headers. So the adapter says whether the peer it received the request
//! from is a trusted proxy (`Request::trusted_peer`): natively when the peer is in
//! `portal serve --trusted-proxies` (default: loopback, so a local reverse proxy works), on the
//! Worker when `CF-Connecting-IP` (set by Cloudflare, the peer there) is a loopback address, which
//! only `wrangler dev` sends. Otherwise the peer itself is the client.

use std::net::IpAddr;

use crate::http::Request;

/// The request headers that may name the client (besides the connection's peer): an answer that
/// depends on who the client is varies with them.
pub const HEADERS: [&str; 3] = ["X-Forwarded-For", "X-Real-IP", "CF-Connecting-IP"];

/// The loopback networks, trusted by default.
pub const LOOPBACK: &str = "127.0.0.0/8,::1";

/// The client address of a request (see the module's doc), else `unknown`.
pub fn address(request: &Request) -> String {
    let peer = request.peer.as_deref().map(str::trim).filter(|a| !a.is_empty());
    if !request.trusted_peer {
        return peer.unwrap_or("unknown").to_string();
    }
    let header = |name: &str| request.header(name).map(str::trim).filter(|a| !a.is_empty());
    let first_forwarded = header("x-forwarded-for").and_then(|list| list.split(',').next()).map(str::trim);
    first_forwarded
        .filter(|a| !a.is_empty())
        .or_else(|| header("x-real-ip"))
        .or_else(|| header("cf-connecting-ip"))
        .or(peer)
        .unwrap_or("unknown")
        .to_string()
}

/// Whether `address` is a loopback address (`127.0.0.0/8`, `::1`, or IPv4 mapped into IPv6).
pub fn is_loopback(address: &str) -> bool {
    match address.trim().parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.is_loopback(),
        Ok(IpAddr::V6(v6)) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        Err(_) => false,
    }
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
        let Ok(peer) = peer.trim().parse::<IpAddr>() else { return false };
        let peer = match peer {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(peer, IpAddr::V4),
            v4 => v4,
        };
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
        assert_eq!(address(&empty), "127.0.0.1", "an empty first hop is no address");
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
