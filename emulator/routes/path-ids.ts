import { isRawUuid } from "#contract/ids.ts";
import { badRequest } from "../http/service-error.ts";

/** v1 paths take raw UUIDs; the 400 uses the v1 wording "valid UUID" (seed 001 "Errors"). */
export function parseV1Id(value: string, name: string): string {
  if (!isRawUuid(value)) throw badRequest(`${name} must be a valid UUID`);
  return value.toLowerCase();
}
