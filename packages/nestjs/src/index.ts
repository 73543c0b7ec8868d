export { TidingsModule, type TidingsModuleAsyncOptions, type TidingsModuleOptions } from "./module";
export { createOnDelivery, OnDelivery } from "./on-delivery";
export { TIDINGS_RECEIVER } from "./tokens";
