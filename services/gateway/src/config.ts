import { runtimeEnv } from '@mimamori/runtime';
import { z } from 'zod';

export const gatewayEnv = {
  ...runtimeEnv,
  // Port of the browser-facing HTTP API and SPA.
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Address the HTTP server binds.
  HTTP_HOST: z.string().default('127.0.0.1'),
  // host:port of the account service's gRPC server.
  ACCOUNT_GRPC_ADDR: z.string().min(3),
  // host:port of the crawler's gRPC server (the wizard preview); without it /api/preview is absent.
  CRAWLER_GRPC_ADDR: z.string().min(3).optional(),
  // host:port of the target service's gRPC server (monitored sites); without it the site routes are absent.
  TARGET_GRPC_ADDR: z.string().min(3).optional(),
  // The built SPA (vite build output) to serve; none when the SPA is served elsewhere.
  WEB_DIST_DIR: z.string().optional(),
  // The product's address in the browser (https://mimamori.example); OAuth redirect URIs start
  // with it. The request's own host when unset.
  PUBLIC_URL: z.string().url().optional(),
};
