/// Wire types shared by clients, the node and the blobbers, with their canonical signing bytes.
enum MosaicProtocolModule {}
