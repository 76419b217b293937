// SQS scenarios through the AWS SDK for JavaScript v3 (@aws-sdk/client-sqs, AWS JSON 1.0) against a
// running service (.ci/sqs-clients.sh), and one exchange in the query protocol with fetch, which the
// SDK no longer speaks.
//
//     node sqs-scenarios.mjs ENDPOINT
//
// Each scenario is one call of scenario(name, async (c) => ...), given a context (the client, queues
// named for this run), and fails by throwing; they run in the order written. A new part of the
// surface (FIFO queues, tags, move tasks) is one more call. Prints one line a scenario and
// 'N passed, N failed'; exits 1 if any failed.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import {
  SQSClient, CreateQueueCommand, GetQueueUrlCommand, ListQueuesCommand, GetQueueAttributesCommand,
  SetQueueAttributesCommand, SendMessageCommand, SendMessageBatchCommand, ReceiveMessageCommand,
  DeleteMessageCommand, DeleteMessageBatchCommand, ChangeMessageVisibilityCommand,
  ChangeMessageVisibilityBatchCommand, ListDeadLetterSourceQueuesCommand, PurgeQueueCommand,
  DeleteQueueCommand, QueueDoesNotExist, ReceiptHandleIsInvalid, MessageNotInflight, TagQueueCommand,
  UntagQueueCommand, ListQueueTagsCommand, StartMessageMoveTaskCommand, ListMessageMoveTasksCommand,
} from '@aws-sdk/client-sqs';

const scenarios = [];
const scenario = (name, run) => scenarios.push({ name, run });

const md5 = (text) => createHash('md5').update(text, 'utf8').digest('hex');

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new assert.AssertionError({ message: 'the call should have failed' });
}

class Context {
  constructor(endpoint, run, [accessKeyId, secretAccessKey] = ['any', 'any']) {
    this.endpoint = endpoint;
    this.run = run;
    this.key = { accessKeyId, secretAccessKey };
    this.sqs = this.client(this.key);
  }

  client(credentials) {
    return new SQSClient({ endpoint: this.endpoint, region: 'us-east-1', credentials });
  }

  /** A queue name of this run: runs against one service do not meet. */
  name(name) {
    return `${this.run}-${name}`;
  }

  async queue(name, Attributes = {}) {
    return (await this.sqs.send(new CreateQueueCommand({ QueueName: this.name(name), Attributes }))).QueueUrl;
  }

  async receive(QueueUrl, options = {}) {
    return (await this.sqs.send(new ReceiveMessageCommand({ QueueUrl, ...options }))).Messages ?? [];
  }

  async counts(QueueUrl) {
    const { Attributes } = await this.sqs.send(new GetQueueAttributesCommand({
      QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }));
    return [Number(Attributes.ApproximateNumberOfMessages), Number(Attributes.ApproximateNumberOfMessagesNotVisible)];
  }

  /** A query-protocol request (form-encoded, XML answer), as SQS served it before JSON. */
  async query(path, members) {
    const answer = await fetch(this.endpoint + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({ Version: '2012-11-05', ...members }),
    });
    return { status: answer.status, xml: await answer.text() };
  }
}

/** The text of each element named `name` in an XML answer (the query protocol's are flat enough). */
const elements = (xml, name) => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

scenario('queues and attributes', async (c) => {
  const url = await c.queue('orders', { VisibilityTimeout: '45' });
  assert.equal(url, `${c.endpoint}/000000000000/${c.name('orders')}`);
  assert.equal((await c.sqs.send(new GetQueueUrlCommand({ QueueName: c.name('orders') }))).QueueUrl, url);
  const listed = await c.sqs.send(new ListQueuesCommand({ QueueNamePrefix: c.name('') }));
  assert.deepEqual(listed.QueueUrls, [url]);
  await c.sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { MessageRetentionPeriod: '3600' } }));
  const { Attributes } = await c.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
  assert.equal(Attributes.VisibilityTimeout, '45');
  assert.equal(Attributes.MessageRetentionPeriod, '3600');
  assert.equal(Attributes.QueueArn, `arn:aws:sqs:us-east-1:000000000000:${c.name('orders')}`);
  const missing = await failure(c.sqs.send(new GetQueueUrlCommand({ QueueName: c.name('missing') })));
  assert.ok(missing instanceof QueueDoesNotExist, `${missing.name}: ${missing.message}`);
});

scenario('send, receive, delete (the SDK checks the MD5s)', async (c) => {
  const url = await c.queue('cycle');
  const body = 'hello from JavaScript: åäö € <&>\r\n';
  const MessageAttributes = {
    kind: { DataType: 'String', StringValue: 'order ✓' },
    blob: { DataType: 'Binary', BinaryValue: new Uint8Array([0, 1, 255]) },
  };
  const sent = await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageAttributes }));
  assert.equal(sent.MD5OfMessageBody, md5(body));
  const [message, ...more] = await c.receive(url, {
    MaxNumberOfMessages: 10, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'],
  });
  assert.equal(more.length, 0);
  assert.equal(message.MessageId, sent.MessageId);
  assert.equal(message.Body, body);
  assert.equal(message.MD5OfMessageAttributes, sent.MD5OfMessageAttributes);
  assert.equal(message.MessageAttributes.kind.StringValue, 'order ✓');
  assert.deepEqual([...message.MessageAttributes.blob.BinaryValue], [0, 1, 255]);
  assert.equal(message.Attributes.ApproximateReceiveCount, '1');
  assert.deepEqual(await c.counts(url), [0, 1]);
  await c.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
  assert.deepEqual(await c.counts(url), [0, 0]);
});

const TRACE = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';

scenario('a traced message (AWSTraceHeader) and SQS\'s characters', async (c) => {
  const url = await c.queue('traced');
  const MessageSystemAttributes = { AWSTraceHeader: { DataType: 'String', StringValue: TRACE } };
  const sent = await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'traced', MessageSystemAttributes }));
  assert.match(sent.MD5OfMessageSystemAttributes, /^[0-9a-f]{32}$/);
  const [message] = await c.receive(url, { MessageSystemAttributeNames: ['AWSTraceHeader'] });
  assert.deepEqual(message.Attributes, { AWSTraceHeader: TRACE });
  for (const refused of ['\u0000', '\u0001', '\u001f', '\ufffe', '\uffff']) {
    const error = await failure(c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `a${refused}b` })));
    assert.equal(error.name, 'InvalidMessageContents', `${error.name}: ${error.message}`);
    assert.equal(error.$metadata.httpStatusCode, 400);
  }
  const allowed = '\t\n\r \ud7ff\ue000\ufffd\u{10000}\u{10ffff}';
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: allowed }));
  const [carried] = await c.receive(url);
  assert.equal(carried.Body, allowed);
});

scenario('batches', async (c) => {
  const url = await c.queue('batch');
  const sent = await c.sqs.send(new SendMessageBatchCommand({
    QueueUrl: url,
    Entries: [
      { Id: 'a', MessageBody: 'first' },
      { Id: 'b', MessageBody: 'second' },
      { Id: 'c', MessageBody: 'too late', DelaySeconds: 901 },
    ],
  }));
  assert.deepEqual(sent.Successful.map((e) => e.Id), ['a', 'b']);
  assert.deepEqual(sent.Failed.map((e) => [e.Id, e.Code, e.SenderFault]), [['c', 'InvalidParameterValue', true]]);
  const received = await c.receive(url, { MaxNumberOfMessages: 10 });
  assert.equal(received.length, 2);
  const changed = await c.sqs.send(new ChangeMessageVisibilityBatchCommand({
    QueueUrl: url,
    Entries: [{ Id: 'a', ReceiptHandle: received[0].ReceiptHandle, VisibilityTimeout: 60 }],
  }));
  assert.deepEqual(changed.Successful.map((e) => e.Id), ['a']);
  const deleted = await c.sqs.send(new DeleteMessageBatchCommand({
    QueueUrl: url,
    Entries: received.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })),
  }));
  assert.deepEqual(deleted.Successful.map((e) => e.Id).sort(), ['d0', 'd1']);
  assert.deepEqual(await c.counts(url), [0, 0]);
});

scenario('visibility', async (c) => {
  const url = await c.queue('visibility');
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'work' }));
  const [first] = await c.receive(url, { VisibilityTimeout: 0 });
  const [again] = await c.receive(url, { MessageSystemAttributeNames: ['ApproximateReceiveCount'] });
  assert.equal(again.Attributes.ApproximateReceiveCount, '2');
  const stale = await failure(c.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first.ReceiptHandle })));
  assert.ok(stale instanceof ReceiptHandleIsInvalid, `${stale.name}: ${stale.message}`);
  await c.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: again.ReceiptHandle, VisibilityTimeout: 0 }));
  const [last] = await c.receive(url);
  const notInflight = await failure(c.sqs.send(new ChangeMessageVisibilityCommand({
    QueueUrl: url, ReceiptHandle: again.ReceiptHandle, VisibilityTimeout: 10,
  })));
  assert.ok(notInflight instanceof MessageNotInflight, `${notInflight.name}: ${notInflight.message}`);
  await c.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: last.ReceiptHandle }));
});

scenario('long poll', async (c) => {
  const url = await c.queue('long-poll');
  const start = Date.now();
  setTimeout(() => c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' })), 500);
  const received = await c.receive(url, { WaitTimeSeconds: 10 });
  assert.deepEqual(received.map((m) => m.Body), ['wake up']);
  assert.ok(Date.now() - start < 8000, 'answered when the message came, not at the wait\'s end');
});

scenario('dead letters', async (c) => {
  const dlq = await c.queue('dlq');
  const { Attributes } = await c.sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }));
  const url = await c.queue('dlq-source', {
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes.QueueArn, maxReceiveCount: '1' }),
  });
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));
  await c.receive(url, { VisibilityTimeout: 0 });
  assert.deepEqual(await c.receive(url), [], 'moved after maxReceiveCount');
  assert.deepEqual((await c.receive(dlq)).map((m) => m.Body), ['poison']);
  const sources = await c.sqs.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }));
  assert.deepEqual(sources.queueUrls, [url]);
});

scenario('FIFO: a group in order, one in flight, duplicates answered as the original', async (c) => {
  const url = await c.queue('orders.fifo', { FifoQueue: 'true', ContentBasedDeduplication: 'true' });
  const first = await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a1', MessageGroupId: 'a' }));
  const again = await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a1', MessageGroupId: 'a' }));
  assert.equal(again.MessageId, first.MessageId);
  assert.equal(again.SequenceNumber, first.SequenceNumber);
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a2', MessageGroupId: 'a' }));
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'b1', MessageGroupId: 'b' }));
  const received = await c.receive(url, { MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'] });
  assert.deepEqual(received.map((m) => m.Body), ['a1', 'b1']);
  assert.equal(received[0].Attributes.MessageGroupId, 'a');
  assert.deepEqual(await c.receive(url, { MaxNumberOfMessages: 10 }), [], 'a2 waits while a1 is in flight');
  await c.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: received[0].ReceiptHandle }));
  assert.deepEqual((await c.receive(url, { MaxNumberOfMessages: 10 })).map((m) => m.Body), ['a2']);
});

scenario('tags', async (c) => {
  const { QueueUrl } = await c.sqs.send(new CreateQueueCommand({ QueueName: c.name('tagged'), tags: { team: 'payments' } }));
  await c.sqs.send(new TagQueueCommand({ QueueUrl, Tags: { 'cost-centre': '42' } }));
  await c.sqs.send(new UntagQueueCommand({ QueueUrl, TagKeys: ['team'] }));
  assert.deepEqual((await c.sqs.send(new ListQueueTagsCommand({ QueueUrl }))).Tags, { 'cost-centre': '42' });
});

scenario('message move task', async (c) => {
  const dlq = await c.queue('move-dlq');
  const { Attributes } = await c.sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }));
  const source = await c.queue('move-source', {
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes.QueueArn, maxReceiveCount: '1' }),
  });
  await c.sqs.send(new SendMessageCommand({ QueueUrl: source, MessageBody: 'poison' }));
  await c.receive(source, { VisibilityTimeout: 0 });
  assert.deepEqual(await c.receive(source), [], 'dead-lettered');
  await c.sqs.send(new StartMessageMoveTaskCommand({ SourceArn: Attributes.QueueArn }));
  let task;
  for (let tries = 0; tries < 100; tries++) {
    [task] = (await c.sqs.send(new ListMessageMoveTasksCommand({ SourceArn: Attributes.QueueArn }))).Results;
    if (task.Status !== 'RUNNING') break;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.equal(task.Status, 'COMPLETED');
  assert.equal(task.ApproximateNumberOfMessagesMoved, 1);
  assert.deepEqual((await c.receive(source)).map((m) => m.Body), ['poison']);
});

scenario('purge and delete', async (c) => {
  const url = await c.queue('purge');
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'held' }));
  await c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'ready' }));
  await c.receive(url);
  await c.sqs.send(new PurgeQueueCommand({ QueueUrl: url }));
  assert.deepEqual(await c.counts(url), [0, 0]);
  await c.sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
  const gone = await failure(c.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x' })));
  assert.ok(gone instanceof QueueDoesNotExist, `${gone.name}: ${gone.message}`);
});

// With QS_SIGV4_KEY=ID:SECRET (a service that checks signatures, docs/security.md) every SDK call signs
// with that key, and the unsigned query-protocol requests below are left out: what is refused, and why.
const signedKey = process.env.QS_SIGV4_KEY?.split(':');

if (signedKey) {
  scenario('signatures: a wrong secret and an unknown key refused with SQS\'s codes', async (c) => {
    const wrong = c.client({ ...c.key, secretAccessKey: `${c.key.secretAccessKey}x` });
    assert.equal((await failure(wrong.send(new ListQueuesCommand({})))).name, 'SignatureDoesNotMatch');
    const unknown = c.client({ ...c.key, accessKeyId: 'AKIDUNKNOWN' });
    assert.equal((await failure(unknown.send(new ListQueuesCommand({})))).name, 'InvalidClientTokenId');
    const unsigned = await c.query('/', { Action: 'ListQueues' });
    assert.equal(unsigned.status, 403);
    assert.deepEqual(elements(unsigned.xml, 'Code'), ['MissingAuthenticationToken']);
    wrong.destroy();
    unknown.destroy();
  });
}

if (!signedKey) scenario('query protocol beside JSON: same queues, XML answers and errors', async (c) => {
  const url = await c.queue('query');
  const path = new URL(url).pathname;
  const sent = await c.query(path, { Action: 'SendMessage', MessageBody: 'sent over the query protocol' });
  assert.equal(sent.status, 200, sent.xml);
  assert.deepEqual(elements(sent.xml, 'MD5OfMessageBody'), [md5('sent over the query protocol')]);
  const [message] = await c.receive(url);
  assert.equal(message.Body, 'sent over the query protocol', 'received over JSON');
  const located = await c.query('/', { Action: 'GetQueueUrl', QueueName: c.name('query') });
  assert.deepEqual(elements(located.xml, 'QueueUrl'), [url]);
  const missing = await c.query('/', { Action: 'GetQueueUrl', QueueName: c.name('missing') });
  assert.equal(missing.status, 400);
  assert.deepEqual(elements(missing.xml, 'Code'), ['AWS.SimpleQueueService.NonExistentQueue']);
});

const endpoint = (process.argv[2] ?? '').replace(/\/$/, '');
if (!endpoint) {
  console.error('usage: node sqs-scenarios.mjs ENDPOINT');
  process.exit(2);
}
const context = new Context(endpoint, `js-${randomBytes(4).toString('hex')}`, signedKey);
const { version } = JSON.parse(await (await import('node:fs/promises')).readFile(
  new URL('./node_modules/@aws-sdk/client-sqs/package.json', import.meta.url), 'utf8'));
console.log(`== @aws-sdk/client-sqs ${version} on Node.js ${process.versions.node}: SQS over JSON`);
let passed = 0;
let failed = 0;
for (const { name, run } of scenarios) {
  try {
    await run(context);
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${name}\n${error.stack}`);
  }
}
context.sqs.destroy();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
