package dynamo

// IAMActions are the DynamoDB actions the pools function performs at run
// time, on the one table only, and so exactly what its IAM policy grants
// (infra/stack.go PoolTableActions; infra's tests check the two agree).
// GetItem and Query read; every write is one TransactWriteItems of Puts
// and Updates (the contribution shards' atomic ADDs, shards.go), and a Put
// or an Update inside a transaction is authorised as dynamodb:PutItem or
// dynamodb:UpdateItem ("Using IAM with DynamoDB transactions", DynamoDB
// developer guide), so both are granted though never called alone.
// CreateTable is used by tests and local development only, never by the
// function.
var IAMActions = []string{
	"dynamodb:GetItem",
	"dynamodb:PutItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
	"dynamodb:UpdateItem",
}

// SweepIAMActions are the DynamoDB actions the scheduled sweep
// (functions/sweep) performs on the table, and so exactly what its IAM
// policy grants there (infra/stack.go SweepTableActions): GetItem to read
// a pool, one TransactWriteItems of Puts (authorised as PutItem too) to pay
// what is due, and Query to read the ledger when the answer to a commit
// was lost (did it land?). No UpdateItem: the function's store keeps no
// contribution shards, whose Updates are the only ones the store writes.
var SweepIAMActions = []string{
	"dynamodb:GetItem",
	"dynamodb:PutItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
}

// SweepIndexIAMActions are what the sweep does on the held index (held.go),
// and only there (infra/stack.go HeldIndexActions): one Query for the pools
// with a held hit due.
var SweepIndexIAMActions = []string{
	"dynamodb:Query",
}
