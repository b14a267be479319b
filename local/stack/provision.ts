import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients } from '../../lib/aws/clients.js';
import { createTable } from './create-table.js';
import { ResourceDefinitionError } from './errors.js';
import type { StackResources } from './resources.js';

export interface ProvisionedNames {
  readonly bucket: string;
  readonly table: string;
  /** Queue URLs by logical id (WorkQueue, DeadLetterQueue). */
  readonly queueUrls: Readonly<Record<string, string>>;
  readonly queueArns: Readonly<Record<string, string>>;
}

/** Creates in the emulators exactly what serverless.yml would create on AWS. */
export async function provision(clients: AwsClients, resources: StackResources): Promise<ProvisionedNames> {
  const { table } = resources;
  await createTable(clients.dynamodb, table);

  await clients.s3.send(new CreateBucketCommand({ Bucket: resources.bucket.BucketName }));

  const queueUrls: Record<string, string> = {};
  const queueArns: Record<string, string> = {};
  for (const queue of resources.queues) {
    const attributes: Record<string, string> = { ...queue.attributes };
    if (queue.redrive) {
      const target = queueArns[queue.redrive.deadLetterLogicalId];
      if (!target)
        throw new ResourceDefinitionError(
          `${queue.logicalId} redrives to unknown ${queue.redrive.deadLetterLogicalId}`,
        );
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: target,
        maxReceiveCount: queue.redrive.maxReceiveCount,
      });
    }
    const created = await clients.sqs.send(
      new CreateQueueCommand({ QueueName: queue.QueueName, Attributes: attributes }),
    );
    const url = created.QueueUrl!;
    const described = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    queueUrls[queue.logicalId] = url;
    queueArns[queue.logicalId] = described.Attributes!.QueueArn!;
  }
  return { bucket: resources.bucket.BucketName, table: table.TableName, queueUrls, queueArns };
}
