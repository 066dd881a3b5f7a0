/// Chunking, erasure coding, Merkle trees, and the blobber with its fragment store.
enum MosaicStorageModule {}
