import Foundation
import MosaicHTTP
import Synchronization

/// What a server counts about the requests it answered, for `/metrics`. Requests are labelled by
/// route pattern (`/v1/blocks/:round`), never by raw path, so no client can grow the series: a
/// path that matches no route counts as `unmatched`, an unknown method as `OTHER`.
package final class HTTPMetrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram's buckets.
    package static let buckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    struct RouteKey: Hashable {
        var method: String
        var route: String
    }

    struct Latency {
        var counts = [UInt64](repeating: 0, count: HTTPMetrics.buckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    struct State {
        var requests: [RouteKey: [Int: UInt64]] = [:]
        var latency: [RouteKey: Latency] = [:]
        var aborted: UInt64 = 0
        var bytesIn: UInt64 = 0
        var bytesOut: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Counts one finished request. `route` is nil when no route matched; `status` 0 when no
    /// answer was queued.
    func record(method: String, route: String?, status: Int, seconds: Double, bytesIn: Int64, bytesOut: Int64, aborted: Bool) {
        let key = RouteKey(
            method: HTTPMethod(rawValue: method) == nil ? "OTHER" : method, route: route ?? "unmatched")
        let bucket = Self.buckets.firstIndex { seconds <= $0 }
        state.withLock { s in
            // A connection that closed before any answer was queued has no status: aborted only.
            if status > 0 { s.requests[key, default: [:]][status, default: 0] &+= 1 }
            var l = s.latency[key] ?? Latency()
            if let bucket { l.counts[bucket] &+= 1 }
            l.count &+= 1
            l.sum += seconds
            s.latency[key] = l
            if aborted { s.aborted &+= 1 }
            s.bytesIn &+= UInt64(clamping: bytesIn)
            s.bytesOut &+= UInt64(clamping: bytesOut)
        }
    }

    /// The families, series sorted so that two scrapes compare line by line.
    package func families(inFlight: Int) -> [Metric] {
        let s = state.withLock { $0 }
        let keys = s.latency.keys.sorted { ($0.route, $0.method) < ($1.route, $1.method) }
        var requests: [Metric.Sample] = []
        var errors: [Metric.Sample] = []
        var latency: [Metric.Sample] = []
        var clientErrors: UInt64 = 0
        var serverErrors: UInt64 = 0
        for key in keys {
            let labels = [Metric.Label("method", key.method), Metric.Label("route", key.route)]
            for (status, n) in (s.requests[key] ?? [:]).sorted(by: { $0.key < $1.key }) {
                requests.append(Metric.Sample(labels + [Metric.Label("status", String(status))], Double(n)))
                if (400..<500).contains(status) { clientErrors &+= n }
                if status >= 500 { serverErrors &+= n }
            }
            guard let l = s.latency[key] else { continue }
            var cumulative: UInt64 = 0
            for (i, bound) in Self.buckets.enumerated() {
                cumulative &+= l.counts[i]
                latency.append(Metric.Sample(suffix: "_bucket", labels + [Metric.Label("le", Metric.format(bound))], Double(cumulative)))
            }
            latency.append(Metric.Sample(suffix: "_bucket", labels + [Metric.Label("le", "+Inf")], Double(l.count)))
            latency.append(Metric.Sample(suffix: "_sum", labels, l.sum))
            latency.append(Metric.Sample(suffix: "_count", labels, Double(l.count)))
        }
        errors = [
            Metric.Sample([Metric.Label("kind", "client")], Double(clientErrors)),
            Metric.Sample([Metric.Label("kind", "server")], Double(serverErrors)),
            Metric.Sample([Metric.Label("kind", "aborted")], Double(s.aborted)),
        ]
        return [
            Metric("mosaic_http_requests_total", .counter, help: "Requests answered, by method, route pattern and status.", requests),
            Metric(
                "mosaic_http_errors_total", .counter,
                help:
                    "Requests answered with a 4xx (client) or 5xx (server), and connections that ended before the answer was sent (aborted).",
                errors),
            Metric(
                "mosaic_http_request_duration_seconds", .histogram,
                help: "Time from the request's headers to the end of its answer, by method and route pattern.", latency),
            Metric("mosaic_http_received_bytes_total", .counter, help: "Request body bytes received.", value: Double(s.bytesIn)),
            Metric("mosaic_http_sent_bytes_total", .counter, help: "Response body bytes sent.", value: Double(s.bytesOut)),
            Metric("mosaic_http_requests_in_flight", .gauge, help: "Requests being answered now.", value: Double(inFlight)),
        ]
    }
}
