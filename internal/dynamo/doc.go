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
// function. The scheduled sweep (functions/sweep) is granted the same list
// on the table (infra/stack.go): a release is a commit of the pool, which
// folds the rounds committed beside it (shards.go), so it reads and writes
// what a round with a hit does.
var IAMActions = []string{
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
