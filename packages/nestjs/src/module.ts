import type { DynamicModule, FactoryProvider, ModuleMetadata, Provider } from "@nestjs/common";
import { DiscoveryModule, DiscoveryService, HttpAdapterHost, MetadataScanner } from "@nestjs/core";
import { bindDeliveryHandlers } from "./delivery-handlers";
import { TIDINGS_RECEIVER } from "./tokens";
import { type AnyReceiver, mountWebhookRoute } from "./webhook-route";

/**
 * What `TidingsModule.forRoot` takes, and what `forRootAsync`'s factory returns.
 *
 * @example
 * ```ts
 * import { createReceiver } from "@tidings/core";
 * import { TidingsModule, type TidingsModuleOptions } from "@tidings/nestjs";
 *
 * const webhooks: TidingsModuleOptions = {
 *   receiver: createReceiver({ secret: process.env.WEBHOOK_SECRET! }),
 *   path: "webhooks/:account", // as for @Controller(); Nest's global prefix does not apply
 * };
 * export const WebhooksModule = TidingsModule.forRoot(webhooks);
 * ```
 */
export interface TidingsModuleOptions {
  /** The Receiver from `createReceiver()`: its secrets, handlers and `maxBodyBytes`. */
  receiver: AnyReceiver;
  /**
   * The URL path of the webhook route, written as for `@Controller()`: "webhooks" or "/webhooks" (a trailing slash
   * is dropped). Nest's global prefix does not apply to it.
   */
  path: string;
}

/**
 * What `TidingsModule.forRootAsync` takes: the options built by a factory from other providers.
 *
 * @example
 * ```ts
 * import { Module } from "@nestjs/common";
 * import { ConfigModule, ConfigService } from "@nestjs/config";
 * import { createReceiver } from "@tidings/core";
 * import { TidingsModule } from "@tidings/nestjs";
 *
 * @Module({
 *   imports: [
 *     TidingsModule.forRootAsync({
 *       imports: [ConfigModule.forRoot()],
 *       inject: [ConfigService],
 *       useFactory: (config: ConfigService) => ({
 *         receiver: createReceiver({ secret: config.getOrThrow<string>("WEBHOOK_SECRET") }),
 *         path: "/webhooks",
 *       }),
 *     }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 */
export interface TidingsModuleAsyncOptions extends Pick<ModuleMetadata, "imports"> {
  useFactory: (...args: never[]) => TidingsModuleOptions | Promise<TidingsModuleOptions>;
  inject?: FactoryProvider["inject"];
}

const OPTIONS = Symbol("@tidings/nestjs options");

// Factory providers with explicit `inject` lists: nothing here depends on emitted decorator metadata.
const PROVIDERS: Provider[] = [
  { provide: TIDINGS_RECEIVER, useFactory: (options: TidingsModuleOptions) => options.receiver, inject: [OPTIONS] },
  {
    // Runs while NestFactory.create() instantiates providers (or at createNestApplication() in tests), so the
    // route is on the platform before `app.init()` adds the body parsers. No adapter (a standalone
    // application context): nothing to mount.
    provide: Symbol("@tidings/nestjs route"),
    useFactory: (host: HttpAdapterHost, { path, receiver }: TidingsModuleOptions) => {
      if (host.httpAdapter) mountWebhookRoute(host.httpAdapter, path, receiver);
      else host.init$.subscribe(() => host.httpAdapter && mountWebhookRoute(host.httpAdapter, path, receiver));
    },
    inject: [HttpAdapterHost, OPTIONS],
  },
  {
    provide: Symbol("@tidings/nestjs handlers"),
    useFactory: (discovery: DiscoveryService, scanner: MetadataScanner, receiver: AnyReceiver) => ({
      // Every singleton exists by now, whichever module it is in.
      onModuleInit: () => bindDeliveryHandlers(discovery, scanner, receiver),
    }),
    inject: [DiscoveryService, MetadataScanner, TIDINGS_RECEIVER],
  },
];

function tidingsModule(imports: NonNullable<ModuleMetadata["imports"]>, options: Provider): DynamicModule {
  return {
    module: TidingsModule,
    global: true,
    imports: [DiscoveryModule, ...imports],
    providers: [options, ...PROVIDERS],
    exports: [TIDINGS_RECEIVER],
  };
}

/**
 * Mounts the webhook route with exact body bytes and runs `@OnDelivery` provider methods for its deliveries.
 *
 * @example
 * ```ts
 * import { Module } from "@nestjs/common";
 * import { createReceiver } from "@tidings/core";
 * import { TidingsModule } from "@tidings/nestjs";
 *
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
 *
 * @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })] })
 * export class AppModule {}
 * ```
 */
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class with static factories
export class TidingsModule {
  /**
   * The route at `path` for `receiver`. Global: import it once, in the root module.
   *
   * @example
   * ```ts
   * import { Module } from "@nestjs/common";
   * import { createReceiver } from "@tidings/core";
   * import { TidingsModule } from "@tidings/nestjs";
   *
   * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET! });
   *
   * @Module({ imports: [TidingsModule.forRoot({ receiver, path: "/webhooks" })] })
   * export class AppModule {}
   * ```
   */
  static forRoot(options: TidingsModuleOptions): DynamicModule {
    return tidingsModule([], { provide: OPTIONS, useValue: options });
  }

  /**
   * Options from other providers, e.g. a secret from ConfigService: `inject: [ConfigService]`.
   *
   * @example
   * ```ts
   * import { Module } from "@nestjs/common";
   * import { ConfigModule, ConfigService } from "@nestjs/config";
   * import { createReceiver } from "@tidings/core";
   * import { TidingsModule } from "@tidings/nestjs";
   *
   * @Module({
   *   imports: [
   *     TidingsModule.forRootAsync({
   *       imports: [ConfigModule.forRoot()],
   *       inject: [ConfigService],
   *       useFactory: (config: ConfigService) => ({
   *         receiver: createReceiver({ secret: config.getOrThrow<string>("WEBHOOK_SECRET") }),
   *         path: "/webhooks",
   *       }),
   *     }),
   *   ],
   * })
   * export class AppModule {}
   * ```
   */
  static forRootAsync({ imports = [], useFactory, inject = [] }: TidingsModuleAsyncOptions): DynamicModule {
    return tidingsModule(imports, { provide: OPTIONS, useFactory, inject });
  }
}
