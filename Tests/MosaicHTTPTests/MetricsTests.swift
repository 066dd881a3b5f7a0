import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

extension MosaicHTTPTests {
    /// `/metrics` counts what the server answered, by route pattern, in the Prometheus text format.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct MetricsTests {
        private static func register(_ s: HTTPServer) {
            s.route(.get, "/v1/items/:id", summary: "An item") { req in .text("item \(try req.param("id"))") }
            s.route(.post, "/v1/items", summary: "Store an item", bodyLimit: 100) { req in .text("stored \(req.body.count)") }
            s.addMetrics { [Metric("test_height", .gauge, help: "A figure the application adds.", value: 42)] }
        }

        private func scrape(_ client: HTTPClient) async throws -> (MetricsScrape, HTTPClientResponse) {
            let r = try await client.send(.get, "/metrics")
            return (MetricsScrape(String(decoding: r.body, as: UTF8.self)), r)
        }

        @Test func requestsErrorsLatencyAndBytesAreCountedByRoutePattern() async throws {
            try await withServer({ Self.register($0) }) { _, client in
                for id in ["a", "b", "c"] { _ = try await client.send(.get, "/v1/items/\(id)") }
                _ = try await client.send(.post, "/v1/items", body: Data(repeating: 7, count: 60))
                // Errors: a path no route matches (its raw text never becomes a label), a body over the limit.
                for path in ["/nope/1", "/nope/2"] { _ = try? await client.send(.get, path) }
                _ = try? await client.send(.post, "/v1/items", body: Data(repeating: 7, count: 500))

                let (m, response) = try await scrape(client)
                #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
                #expect(m["mosaic_http_requests_total", ["method": "GET", "route": "/v1/items/:id", "status": "200"]] == 3)
                #expect(m["mosaic_http_requests_total", ["method": "POST", "route": "/v1/items", "status": "200"]] == 1)
                #expect(m["mosaic_http_requests_total", ["method": "POST", "route": "/v1/items", "status": "413"]] == 1)
                #expect(m["mosaic_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]] == 2)
                #expect(!m.values.keys.contains { $0.contains("/nope") }, "a raw path became a label")
                #expect(m["mosaic_http_errors_total", ["kind": "client"]] == 3)
                #expect(m["mosaic_http_errors_total", ["kind": "server"]] == 0)
                #expect(m.types["mosaic_http_request_duration_seconds"] == "histogram")
                #expect(m["mosaic_http_request_duration_seconds_count", ["method": "GET", "route": "/v1/items/:id"]] == 3)
                #expect(m["mosaic_http_request_duration_seconds_bucket", ["method": "GET", "route": "/v1/items/:id", "le": "+Inf"]] == 3)
                #expect(m["mosaic_http_received_bytes_total"].map { $0 >= 60 } == true)
                #expect(m["mosaic_http_sent_bytes_total"].map { $0 >= Double("item a".count * 3) } == true)
                #expect(m["mosaic_http_requests_in_flight"] == 1, "the scrape itself is in flight")
                #expect(m["test_height"] == 42)

                // Cumulative buckets never decrease, and the scrape itself is counted next time.
                let buckets = HTTPMetrics.buckets.map { b in
                    m["mosaic_http_request_duration_seconds_bucket", ["method": "GET", "route": "/v1/items/:id", "le": Metric.format(b)]]
                }
                #expect(buckets.allSatisfy { $0 != nil })
                #expect(zip(buckets, buckets.dropFirst()).allSatisfy { ($0 ?? 0) <= ($1 ?? 0) })
                let (again, _) = try await scrape(client)
                #expect(again["mosaic_http_requests_total", ["method": "GET", "route": "/metrics", "status": "200"]] == 1)
            }
        }

        @Test func labelValuesAndHelpAreEscaped() {
            let m = Metric(
                "x_total", .counter, help: "a \\ b\nc", [Metric.Sample([Metric.Label("path", "a\"b\\c\nd")], 1.5)])
            #expect(m.text == "# HELP x_total a \\\\ b\\nc\n# TYPE x_total counter\nx_total{path=\"a\\\"b\\\\c\\nd\"} 1.5\n")
            #expect(Metric.format(3) == "3" && Metric.format(.infinity) == "+Inf")
        }
    }
}
