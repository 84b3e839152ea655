// A read's answer can be shared: cache hits and coalesced callers get the same
// object. Freezing it makes a caller that mutates it fail loudly in tests
// instead of silently changing what the next user is shown.

export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
