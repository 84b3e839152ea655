/** A refused `/_sandbox/` control: answered as plain JSON `{code, message}`. */
export class SandboxError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
