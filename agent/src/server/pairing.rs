//! Pairing: the token and the link printed at start-up. The link is the calculator's URL
//! with the agent's address and the token in the fragment, which browsers never send
//! to a server, so the token stays out of logs and referrers.

use std::net::SocketAddr;

/// A fresh token: 128 random bits from the OS, as 32 hex digits.
pub fn new_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether a user-chosen token is usable: 16 to 128 characters a WebSocket subprotocol
/// can carry (letters, digits, `-`, `_`, `.`, `~`).
pub fn check_token(token: &str) -> Result<(), String> {
    if !(16..=128).contains(&token.len()) {
        return Err(format!(
            "the token must be 16 to 128 characters long, not {}",
            token.len()
        ));
    }
    if let Some(c) = token
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "-_.~".contains(*c)))
    {
        return Err(format!(
            "the token may hold only letters, digits, `-`, `_`, `.` and `~`, not `{c}`"
        ));
    }
    Ok(())
}

/// The address a browser on this machine uses for the agent (an unspecified bind
/// address is reached through loopback).
pub fn local_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        match addr {
            SocketAddr::V4(_) => "127.0.0.1".to_string(),
            SocketAddr::V6(_) => "[::1]".to_string(),
        }
    } else if addr.is_ipv6() {
        format!("[{}]", addr.ip())
    } else {
        addr.ip().to_string()
    };
    format!("http://{ip}:{}", addr.port())
}

/// The pairing link: `calculator#agent=AGENT&token=TOKEN` (the agent's URL is written
/// as is: its characters are all legal in a fragment).
pub fn link(calculator: &str, agent: &str, token: &str) -> String {
    let base = calculator.split('#').next().unwrap_or(calculator);
    format!("{base}#agent={agent}&token={token}")
}

/// The origin (`scheme://host[:port]`) of a URL, if it has one.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty() && matches!(scheme, "http" | "https"))
        .then(|| format!("{scheme}://{authority}").to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_hex() {
        let (a, b) = (new_token().expect("os rng"), new_token().expect("os rng"));
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_eq!(check_token(&a), Ok(()));
    }

    #[test]
    fn chosen_tokens_are_checked() {
        assert!(check_token("short").is_err());
        assert!(
            check_token("has space in the middle")
                .unwrap_err()
                .contains("` `")
        );
        assert_eq!(check_token("ci-token-0123456789"), Ok(()));
    }

    #[test]
    fn links_carry_agent_and_token_in_the_fragment() {
        let addr: SocketAddr = "0.0.0.0:7878".parse().expect("addr");
        let agent = local_url(addr);
        assert_eq!(agent, "http://127.0.0.1:7878");
        assert_eq!(
            link("https://rooflinr.example.org/app/#old", &agent, "t0k"),
            "https://rooflinr.example.org/app/#agent=http://127.0.0.1:7878&token=t0k"
        );
        let v6: SocketAddr = "[::1]:9000".parse().expect("addr");
        assert_eq!(local_url(v6), "http://[::1]:9000");
    }

    #[test]
    fn origins_are_scheme_and_authority() {
        assert_eq!(
            origin_of("https://Rooflinr.example.org/app/?x#y").as_deref(),
            Some("https://rooflinr.example.org")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:7878").as_deref(),
            Some("http://127.0.0.1:7878")
        );
        assert_eq!(origin_of("file:///tmp/x"), None);
        assert_eq!(origin_of("nonsense"), None);
    }
}
