module github.com/tablesettle/tablesettle

go 1.26.8

require (
	github.com/aws/aws-lambda-go v1.55.1
	github.com/awslabs/aws-lambda-go-api-proxy v0.16.2
	github.com/danielgtaylor/huma/v2 v2.37.2
)
