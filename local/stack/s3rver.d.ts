// s3rver ships no types: what the stand-in (s3-emulator.ts) uses of it.
declare module 's3rver' {
  interface KoaContext {
    headers: Record<string, string | string[] | undefined>;
    url: string;
    status: number;
    body: unknown;
    type: string;
  }
  type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

  export default class S3rver {
    constructor(options: object);
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: { Records: unknown[] }) => void): void;
    middleware: Middleware[];
    store: object;
    context: { store: object };
  }
}

declare module 's3rver/lib/models/account.js' {
  const AWSAccount: {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void; revokeAccessKey(id: string): void };
  };
  export default AWSAccount;
}

declare module 's3rver/lib/stores/filesystem.js' {
  export default class FilesystemStore {
    constructor(rootDirectory: string);
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putObject(object: {
      bucket: string;
      key: string;
      content: Buffer | import('node:stream').Readable;
      metadata: Record<string, string>;
    }): Promise<{ size: number; md5: string }>;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
    getMetadata(bucket: string, key: string): Promise<Record<string, unknown>>;
    copyObject(
      srcBucket: string,
      srcKey: string,
      destBucket: string,
      destKey: string,
      replacementMetadata?: Record<string, string>,
    ): Promise<Record<string, unknown>>;
    getSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<unknown>;
    putSubresource(bucket: string, key: string | undefined, resource: { type: string }): Promise<void>;
    deleteSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<void>;
    putBucket(bucket: string): Promise<unknown>;
    deleteBucket(bucket: string): Promise<unknown>;
  }
}
