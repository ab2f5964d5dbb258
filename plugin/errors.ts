/** A request the engine should not have sent (an unknown type or function token): the plugin answers INVALID_ARGUMENT. */
export class BadRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadRequestError";
  }
}
