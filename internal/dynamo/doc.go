package dynamo

// IAMActions are the DynamoDB actions the pools function performs at run
// time, on the one table only, and so exactly what its IAM policy grants
// (infra/stack.go PoolTableActions; infra's tests check the two agree).
// GetItem, BatchGetItem (a fold reads the records of the rounds it folds,
// shards.go) and Query read; every write is one TransactWriteItems of Puts
// and Updates (the contribution shards' atomic ADDs, shards.go), and a Put
// or an Update inside a transaction is authorised as dynamodb:PutItem or
// dynamodb:UpdateItem ("Using IAM with DynamoDB transactions", DynamoDB
// developer guide), so both are granted though never called alone.
// CreateTable is used by tests and local development only, never by the
// function.
var IAMActions = []string{
	"dynamodb:BatchGetItem",
	"dynamodb:GetItem",
	"dynamodb:PutItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
	"dynamodb:UpdateItem",
}

// SweepIAMActions are the DynamoDB actions the scheduled sweep
// (functions/sweep) performs on the table, and so exactly what its IAM
// policy grants there (infra/stack.go SweepTableActions): GetItem to read
// a pool, Query to read its contribution shards and (when the answer to a
// commit was lost: did it land?) the ledger, BatchGetItem to read the
// records of the rounds a release folds, and one TransactWriteItems of
// Puts and the shards' Updates (authorised as PutItem and UpdateItem) to
// fold them and pay what is due. A release is a commit of the pool, and a
// commit folds the rounds committed beside it (shards.go). No Scan, no
// DeleteItem.
var SweepIAMActions = []string{
	"dynamodb:BatchGetItem",
	"dynamodb:GetItem",
	"dynamodb:PutItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
	"dynamodb:UpdateItem",
}

// SweepIndexIAMActions are what the sweep does on the held index (held.go),
// and only there (infra/stack.go HeldIndexActions): one Query for the pools
// with a held hit due.
var SweepIndexIAMActions = []string{
	"dynamodb:Query",
}
