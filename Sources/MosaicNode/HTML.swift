import Foundation
import MosaicProtocol

/// Server-side HTML building for the explorer: everything that comes from data goes through
/// `escape`, so a memo or contract output can never inject markup.
enum HTML {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A link whose target and text are both escaped.
    static func link(_ href: String, _ text: String, cls: String? = nil) -> String {
        "<a href=\"\(escape(href))\"\(cls.map { " class=\"\(escape($0))\"" } ?? "")>\(escape(text))</a>"
    }

    /// "2026-11-30 05:00:00 UTC" from unix seconds.
    static func time(_ unix: Int64) -> String { UTCTime.dateTime(unix) + " UTC" }

    /// A full page with the explorer's header, search box and stylesheet.
    static func page(title: String, network: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Mosaic explorer</title>
        <style>\(style)</style></head>
        <body><header><a class="brand" href="/explorer">Mosaic explorer</a><span class="net">\(escape(network))</span>
        <form action="/explorer/search" method="get"><input name="q" placeholder="transaction hash, block round or hash, client id" aria-label="search"><button>Search</button></form></header>
        <main>\(body)</main>
        <footer>Served by the node itself · <a href="/openapi.json">API</a></footer></body></html>
        """
    }

    /// A two-column table of labelled values (values are already HTML).
    static func details(_ rows: [(String, String)]) -> String {
        "<table class=\"details\">" + rows.map { "<tr><th>\(escape($0.0))</th><td>\($0.1)</td></tr>" }.joined() + "</table>"
    }

    static let style = """
        :root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa;--accent:#3b5bdb;--ok:#157f3b;--bad:#c02a2a;--wait:#9a6700}
        *{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        header{display:flex;flex-wrap:wrap;gap:12px;align-items:center;padding:12px 24px;background:#fff;border-bottom:1px solid var(--line)}
        .brand{font-weight:700;color:var(--fg);text-decoration:none}.net{color:var(--muted);font-size:13px;border:1px solid var(--line);border-radius:10px;padding:1px 8px}
        header form{margin-left:auto;display:flex;gap:6px}header input{width:min(520px,60vw);padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit}
        header button{padding:6px 12px;border:0;border-radius:6px;background:var(--accent);color:#fff;font:inherit;cursor:pointer}
        main{max-width:1100px;margin:24px auto;padding:0 24px}h1{font-size:22px;margin:0 0 16px}h2{font-size:17px;margin:28px 0 10px}
        table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
        th,td{text-align:left;padding:8px 12px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:500;white-space:nowrap}
        table.details th{width:180px}td.num{text-align:right;font-variant-numeric:tabular-nums}
        .hash,code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}
        a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
        .status{display:inline-block;padding:0 8px;border-radius:10px;font-size:13px;font-weight:600}
        .sealed,.success{background:#e3f4e8;color:var(--ok)}.finalized,.pending{background:#fff4d6;color:var(--wait)}.expired,.failure{background:#fde8e8;color:var(--bad)}
        .muted{color:var(--muted)}.pager{margin:12px 0;display:flex;gap:12px}footer{max-width:1100px;margin:32px auto;padding:0 24px;color:var(--muted);font-size:13px}
        """
}
