/** Injects the Receiver of `TidingsModule.forRoot()`: `constructor(@Inject(TIDINGS_RECEIVER) receiver: Receiver)`. */
export const TIDINGS_RECEIVER = Symbol.for("@tidings/nestjs receiver");
