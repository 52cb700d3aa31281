package dynamo

// IAMActions are the DynamoDB actions the pools function performs at run
// time, on the one table only (CONTRACTS.md grants exactly GetItem,
// PutItem, UpdateItem, Query, TransactWriteItems and ConditionCheckItem;
// this store needs a subset of them). The infra test can check its policy
// against this list. CreateTable is used by tests and local development
// only, never by the function.
var IAMActions = []string{
	"dynamodb:GetItem",
	"dynamodb:Query",
	"dynamodb:TransactWriteItems",
}
