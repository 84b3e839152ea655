import { encodeJson } from "../answer-intake.ts";
import { SharedAnswer } from "../shared-answer.ts";

/** `data` kept as the upstream client keeps an answer it took in; `keepParsed`: with its objects, as for a caller about to use them. */
export function shareAnswer<T extends object>(data: T, { keepParsed }: { keepParsed: boolean }): SharedAnswer<T> {
  return SharedAnswer.fromBytes(encodeJson(JSON.stringify(data)), keepParsed ? data : undefined);
}
