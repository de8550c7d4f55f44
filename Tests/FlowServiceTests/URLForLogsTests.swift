import DropsWeb
import Testing

/// `urlForLogs` on URLs of every shape: it never traps (setting "<redacted>" as a URLComponents path did) and
/// never shows a query, a user or a token-like path segment.
@Suite struct URLForLogsTests {
    @Test(arguments: [
        ("https://collect.example", "https://collect.example"),
        ("https://collect.example/", "https://collect.example/"),
        ("https://u:pw@collect.example:8443/V1/Collect?jwt=x#f", "https://collect.example:8443/V1/Collect?<redacted>"),
        ("https://[::1]:8080/a%20b/c", "https://[::1]:8080/a%20b/c"),
        ("file:///tmp/x", "file:///tmp/x"),
        ("mailto:someone", "mailto:someone"),
        ("https://h/eyJa.eyJb.c", "https://h/<redacted>"),
        ("https://h/v1.2.3/Collect", "https://h/v1.2.3/Collect"),
        ("https://h/0123456789abcdef0123456789abcdef", "https://h/<redacted>"),
        ("https://h//double//slash", "https://h//double//slash"),
        ("https://h/eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0./x", "https://h/<redacted>/x"),
        ("https://h/eyJa.eyJb.eyJc.d.e", "https://h/<redacted>"),
        ("https://h/abc+def/0123456789abcdef0123456789abc+de/x", "https://h/abc+def/<redacted>/x"),
        ("https://h/0123456789abcdef0123456789abcdef.json", "https://h/<redacted>"),
        ("https://h/Collect;jsessionid=0123456789abcdef0123456789abcdef", "https://h/<redacted>"),
        ("https://h/Collect;v=2", "https://h/Collect;v=2"),
        ("not a url", "<redacted>"),
        ("", "<redacted>"),
    ])
    func shown(_ url: String, _ expected: String) {
        #expect(urlForLogs(url) == expected)
    }
}
