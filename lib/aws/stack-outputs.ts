import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

/**
 * A deployed stack's outputs (serverless.yml's `Outputs`) and the region it was found in: what
 * `--stage` discovers the bucket, table, queues, state machine and functions from.
 */
export async function readStackOutputs(
  stackName: string,
  options: { readonly region?: string; readonly requestTimeoutMs?: number } = {},
): Promise<{ region: string; outputs: Record<string, string> }> {
  const cfn = new CloudFormationClient({
    ...(options.region ? { region: options.region } : {}),
    maxAttempts: 3,
  });
  try {
    const region = await cfn.config.region();
    const r = await cfn.send(new DescribeStacksCommand({ StackName: stackName }), {
      abortSignal: AbortSignal.timeout(options.requestTimeoutMs ?? 15_000),
    });
    const outputs = Object.fromEntries(
      (r.Stacks?.[0]?.Outputs ?? []).flatMap((o) =>
        o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue]] : [],
      ),
    );
    return { region, outputs };
  } finally {
    cfn.destroy();
  }
}
