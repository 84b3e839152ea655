// DESIGN.md "Rules that come from the spec": the data key never reaches a
// log line or an error message. Text that came from outside (the service's
// error messages, network error reasons) passes through here before it is
// put into an error or a log object.

/** Any data key of the service (seed 001 "Authentication": `svc_prd_ak_` / `svc_dev_ak_` + body). */
const ANY_DATA_KEY = /svc_(?:prd|dev)_ak_[A-Za-z0-9]+/g;
const BEARER = /Bearer\s+\S+/gi;
const REDACTED = "[redacted]";

export function createRedactor(secret: string): (text: string) => string {
  return (text) => {
    let out = text;
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
    return out.replace(ANY_DATA_KEY, REDACTED).replace(BEARER, `Bearer ${REDACTED}`);
  };
}
