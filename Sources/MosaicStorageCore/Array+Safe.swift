extension Array {
    /// The element at `i`, or nil when `i` is out of range: indices from a peer never trap.
    package subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}
