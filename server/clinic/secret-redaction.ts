// Text from outside (the service's messages, network errors) passes here
// before it goes into an error or a log: the data key never does (DESIGN.md).

/** Any data key of the service (seed 001 "Authentication"). */
const ANY_DATA_KEY = /svc_(?:prd|dev)_ak_[A-Za-z0-9]+/g;
const BEARER = /Bearer\s+\S+/gi;
const REDACTED = "[redacted]";

export function createRedactor(secret: string): (text: string) => string {
  return (text) => {
    const out = secret.length > 0 ? text.split(secret).join(REDACTED) : text;
    return out.replace(ANY_DATA_KEY, REDACTED).replace(BEARER, `Bearer ${REDACTED}`);
  };
}
