import { encodeJson } from "../answer-intake.ts";
import { SharedAnswer, type ParseKeeping } from "../shared-answer.ts";

/** `data` kept as the upstream client keeps an answer it took in; `keepParsed`: with its objects, as for a caller about to use them; `keeping`: bench-switches.ts "kept-parses". */
export function shareAnswer<T extends object>(data: T, { keepParsed, keeping }: { keepParsed: boolean; keeping?: ParseKeeping }): SharedAnswer<T> {
  return SharedAnswer.fromBytes(encodeJson(JSON.stringify(data)), keepParsed ? data : undefined, keeping);
}
