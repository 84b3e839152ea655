import { encodeJson } from "../answer-intake.ts";
import { SharedAnswer } from "../shared-answer.ts";

/** `data` kept as the upstream client keeps an answer it took in. */
export function shareAnswer<T extends object>(data: T): SharedAnswer<T> {
  return SharedAnswer.fromBytes(encodeJson(JSON.stringify(data)));
}
