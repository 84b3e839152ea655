import { serveSlotSearchReads } from "./slot-search-reads.ts";

// The slot search worker's entry (slot-search-reader.ts starts it).
serveSlotSearchReads(globalThis);
