/// What an app calls: keystore, wallet, ledger client, storage client.
enum MosaicSDKModule {}
