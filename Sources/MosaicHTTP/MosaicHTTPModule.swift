/// The HTTP server over libmicrohttpd and the HTTP client.
enum MosaicHTTPModule {}
