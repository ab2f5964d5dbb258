export { Deliveries, boundsOf, ANSWER_READ_BYTES, DELIVERY_TOKEN_TTL_SECONDS, type DeliveryOptions, type DeliveryStats } from "./deliveries";
export { eventOf, bodyTypeOf, EXTENSION, type DeliveredEvent } from "./event";
