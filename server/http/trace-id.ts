import { randomBytes } from "node:crypto";

/** The BFF's trace id of one request, in its error bodies and log lines. */
export const newTraceId = () => `tdm_${randomBytes(12).toString("hex")}`;
