print("bench-ledger: not written yet")
